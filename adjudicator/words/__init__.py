"""What players read: a ruling's chat lines and headline (`transcript`), a check's form (`forms`)
and its field help (`wording`), a result as the pages show it (`results`)."""
