// Server tests live in this folder.
