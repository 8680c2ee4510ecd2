<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>About</name>
    <message>
        <source>A desktop host for AI coding agents: every edit and command is shown first and approved from the keyboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings: {config}&lt;br&gt;Data: {data}&lt;br&gt;Logs: {logs}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Agent Desk</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Announce</name>
    <message>
        <source>Agent answered: {text}</source>
        <extracomment>Characters of an answer that are spoken; longer answers end with &quot;…&quot;. Markdown marks a reader would spell out: emphasis, code ticks, heading and quote marks.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent finished without an answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent exited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn failed: {message}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <source>Approval request: {what}</source>
        <extracomment>Milliseconds after the card took focus by itself during which decision keys are ignored. &quot;Deny always&quot; is Ctrl+Shift+N: two modifiers, never typed by accident (a plain letter could be).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tab to review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Tab to review this request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason for denying — Enter: deny, Esc: back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason for denying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve always: {category} tools in this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny with reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⇧N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny always: {category} tools in this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approving…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denying…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{index} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Y or Enter approves once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A approves always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N or Escape denies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shift+N denies with a reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+N denies always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tab goes to the next request, Shift+Tab back to the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: {keys}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval needed: {what}. Tab to review it, Y approves, N denies.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CardLine</name>
    <message>
        <source>Decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show what this call does and what it printed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide ▾</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details ▸</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CatalogueBox</name>
    <message>
        <source>looking…</source>
        <extracomment>Lines kept in the install log (npm can be chatty). True once the programs were looked up (tests wait for it before closing). Keys of the agents found installed by the last look-up.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install {title}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>npm install {spec} into Agent Desk&apos;s data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reinstall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>installing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install failed — see the log ({spec})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Ask every time</source>
        <extracomment>``ApprovalMode`` values (``desktop.core.events``; a test keeps them equal). Plain strings, because the composer is painted before the core is imported (see ``desktop.ui.startup``).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-approve edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve everything (yolo)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask</source>
        <extracomment>Short mode labels for a narrow window (the full label stays in the tooltip and the accessible name).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yolo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach…</source>
        <extracomment>Buttons added by window plug-ins (``add_action``), by name.
----------
Narrow window: short labels (``_fit``); the row&apos;s width with the full ones.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach files to the next prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the attached files from the next prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the running turn (Esc in the prompt, or Ctrl+.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompt (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConfirmDeleteBar</name>
    <message>
        <source>Confirm deletion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {title}? You can undo this until you close the window.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConversationActions</name>
    <message>
        <source>Rename</source>
        <extracomment>Deleted conversations, most recent last: what Undo brings back. Conversations being deleted: a reload meanwhile does not list them again.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConversationList</name>
    <message>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrow keys open a conversation, F2 renames, Delete deletes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <source>Jump to latest</source>
        <extracomment>Minimum time between two repaints of streamed text (60 per second). How close to the bottom (pixels) still counts as &quot;at the bottom&quot; (the view follows new text). Gap between the &quot;Jump to latest&quot; button and the bottom of the conversation. Share of the column a prompt may take before it wraps (never less than ``_BUBBLE_MIN``).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scroll to the latest message (Ctrl+End)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>Diff summary</source>
        <extracomment>Toggles unified / side-by-side while focus is inside the view (approval cards forward it). Opens the diff of the focused approval card full-window (``desktop.ui.review``). Toggles wrapping of long lines (the review view; VS Code&apos;s key for it).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Toggle side-by-side diff view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff, unified view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff, old version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff, new version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>side-by-side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the {view} diff ({key})</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EmptyConversation</name>
    <message>
        <source>Starting the agent…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation (starting)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Starting the agent…</source>
        <extracomment>(keys, what they do): the three a new user needs first (Shift+Enter is in the placeholder). What each approval mode (``ApprovalMode`` value) means, said in the empty state.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{agent} is ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting {agent}…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExtensionsPage</name>
    <message>
        <source>Shell deny list</source>
        <extracomment>Each extension&apos;s one switch, by folder name (on: it loads after Save).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One pattern per line: a glob (sudo *) or re:REGEX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save deny list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shell deny list (shell_deny_list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The deny list could not be read: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {count} patterns; they apply at once.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FixBanner</name>
    <message>
        <source>Fix…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HistorySidebar</name>
    <message>
        <source>Search</source>
        <extracomment>Typing pauses this long before a search runs.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search every conversation of this workspace (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CONVERSATIONS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RESULTS</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KeyPanel</name>
    <message>
        <source>Stored key</source>
        <extracomment>(provider, model, base URL) of the profile as currently edited (unsaved edits count).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste a new key, then Save key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace key</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>&amp;File</source>
        <extracomment>Edit actions: slots of the focused text field (QLineEdit, QPlainTextEdit, QTextEdit). View ▸ Theme&apos;s actions (named ``theme`` + ``core.settings.Theme`` value, titled) and texts.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Agent Desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Workspace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find in Conversations…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sidebar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to review: no change is waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModeButton</name>
    <message>
        <source>Approval mode and always-rules of this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval mode: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PreviewBody</name>
    <message>
        <source>Warning: outside the workspace</source>
        <extracomment>Rows of a diff shown inside a card before it scrolls. Rows of a command or JSON body shown before it scrolls.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Runs outside the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Outside the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creates an empty file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the tool&apos;s arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments ▸</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments ▾</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PromptEdit</name>
    <message>
        <source>Ask the agent…  (Enter to send, Shift+Enter for a new line)</source>
        <extracomment>Seconds after the last key typed into the composer during which it is &quot;in use&quot;: a new approval request does not take keyboard focus from it (see ``PromptEdit.in_use``).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line, Esc stops the agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewController</name>
    <message>
        <source>Decided</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewFiles</name>
    <message>
        <source>new</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>binary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed files</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewHook</name>
    <message>
        <source>Review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review the change full-window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message>
        <source>Review changes</source>
        <extracomment>Keys of the review&apos;s own commands (the decision keys are the card&apos;s). Narrower than this, the file list is hidden and the diff takes the width (its file headers still name every file). Decision keys, as on the card: (keys, Decision value or &quot;reason&quot;).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>← Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to the conversation (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unified or side by side ({key})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrap long lines ({key})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous change (Alt+↑)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next change (Alt+↓)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>{index} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleRow</name>
    <message>
        <source>Denied: {label}</source>
        <extracomment>What each mode means, under its name.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke the {kind} for {label}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask again for the next request like this (a pending one stays)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always {verdict}: {label}, {spoken}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RulesPanel</name>
    <message>
        <source>Approval mode and always-rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke all always-rules</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SearchResults</name>
    <message>
        <source>Search results</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Running</source>
        <extracomment>What each runtime state reads as on a row&apos;s badge.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs trust</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload extensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extensions found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}: on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On or off (applies when you Save)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review and trust…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} {1} · from this workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} running · {1} waiting for trust · switches apply when you Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>built in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your extensions folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The APIs the built-in agent talks to, and their keys.</source>
        <extracomment>The line under each page&apos;s title.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agents new conversations can use.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New conversations, approvals and the look of the window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What extensions do, and which of them are on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Providers</source>
        <extracomment>The page names, for the catalogue (the pages are keyed by their English names).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings — Agent Desk</source>
        <extracomment>Top-level fields edited on their own pages (lists) or not editable (the version).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save every page (Ctrl+S)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close (Esc); unsaved changes are dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the settings file: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved — </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> pt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} (not found)</source>
        <extracomment>Data of a ``NameChoice``&apos;s &quot;New …&quot; entry.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty for the default</source>
        <extracomment>Argument-vector fields edited as one shell-quoted line rather than one item per line.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <extracomment>Agent kind → model class, from the union itself (a new kind gets a form by itself).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove from {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New profile…</source>
        <extracomment>The fields that name a provider profile: a choice of the profiles, and &quot;New profile…&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signing key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aionrs JSON stream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent Client Protocol (ACP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codex app-server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write inside the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full access (no sandbox)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When Codex asks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When a command fails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-approve read-only tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny listed shell commands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review file changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built-in agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remote runtime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ACP agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codex&apos;s own login</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent&apos;s default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings pages</source>
        <extracomment>Pages by their (untranslated) name, which ``show_page`` takes.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ShortcutsWindow</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <extracomment>The approval cards&apos; keyboard contract. Keys Qt spells as words that read better as symbols.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title} shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <source>Starting…</source>
        <extracomment>``SessionState`` values in words (a test keeps the keys equal to the enum&apos;s values).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent of this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval mode of this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens in {0} · out {1} · cache {2}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrustDialog</name>
    <message>
        <source>Trust extension {display_name}?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{display_name}&lt;/b&gt; {version} wants to run in this workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace extensions are Python code that came with the repository. Trust it only if you trust its authors: it runs with your permissions and can approve or deny tool calls.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder: {folder}
Content hash: {digest}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust and load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trusted, but loading failed: {errors}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UnavailableAgentNotice</name>
    <message>
        <source>{recorded} is not available</source>
        <extracomment>The Settings page where agents are added (``SettingsDialog.pages``).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue with {alternative}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue this conversation with {alternative}; it gets a summary of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add {recorded} or install its program in Settings ▸ Agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This conversation was recorded with {recorded}, which is not available: {reason}. Nothing was started.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Undo deletion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo the deletion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo the deletion (Ctrl+Z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> +{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted “{0}”</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <source>Set up an agent</source>
        <extracomment>The segmented choice: (value, label). ``agent``: an installed agent instead of a provider. Base URLs of the usual local servers (filled in by the quick buttons).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http://localhost:11434/v1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent to use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. llama3.1, qwen2.5-coder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional for local servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sk-ant-…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sk-…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WindowAddons</name>
    <message>
        <source>Settings (Ctrl+,)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{command} (--agent-cmd)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set on the command line: {command}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent for new conversations: {agent}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggesting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggest</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WorkspaceWindow</name>
    <message>
        <source>{workspace} — Agent Desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  &amp;Agent: </source>
        <extracomment>The status bar&apos;s labels by name (state, agent, mode, tokens).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent for new conversations</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>_ConversationDelegate</name>
    <message>
        <source>Conversation title</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
