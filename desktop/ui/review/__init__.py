"""The review view: a diff full-window with its files, layout, wrap and change keys.

``ReviewController`` (``controller``) places it in a workspace window; ``ReviewView``
(``view``) is the widget. Nothing is imported here, so the approval card can import the
package's keys without loading the controller.
"""
