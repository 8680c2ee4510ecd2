"""Tests of the extension runtime and the SDK contract."""
