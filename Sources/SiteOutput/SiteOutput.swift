// The SiteOutput module; see ../../README.md and DESIGN notes.
