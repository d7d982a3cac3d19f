// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
// Every Swift code block of the README, Docs/ and the DocC landing pages, written out so that CI compiles
// it: .ci/check-doc-snippets.py finds each block in these files, line for line. Lines ending with `//-`
// are the scaffolding a page leaves implicit (the function around a block's statements, the types it
// mentions); they are skipped when a block is looked for. One file per page, or per block that starts
// with its own imports.
