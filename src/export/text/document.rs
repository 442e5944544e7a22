//! The one document form every human-readable report is built as (headings, titles,
//! tables, notes, paragraphs), so that the terminal table ([`crate::export::text::table`]) and
//! Markdown ([`crate::export::text::markdown`]) renderers are each written once.

/// A report as blocks, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Document {
    /// The blocks.
    pub blocks: Vec<Block>,
}

/// One block of a document.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Block {
    /// A heading: level 1 for a whole document, 2 for a section.
    Heading {
        /// 1 or 2.
        level: u8,
        /// Its text.
        text: String,
    },
    /// The title line of the table below it.
    Title(String),
    /// A table; one without rows reads `(none)`.
    Table(Table),
    /// Findings under a table, one line each: plain lines, or a bullet list.
    Notes(Vec<String>),
    /// Notes of explanation that a terminal wraps to its width (findings are kept one
    /// line each, for grep); Markdown lists them like notes.
    Prose(Vec<String>),
    /// A line of text.
    Paragraph(String),
    /// An empty line.
    Gap,
}

/// A table: a header, rows of display strings, and which columns hold numbers (drawn
/// right-aligned).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Table {
    /// Column titles.
    pub header: Vec<String>,
    /// Rows, as wide as the header.
    pub rows: Vec<Vec<String>>,
    /// Whether each column holds numbers.
    pub numeric: Vec<bool>,
}

impl Table {
    /// A table of `rows` under `header`.
    pub(crate) fn new<S: AsRef<str>>(
        header: &[S],
        numeric: &[bool],
        rows: Vec<Vec<String>>,
    ) -> Self {
        Table {
            header: header.iter().map(|h| h.as_ref().to_string()).collect(),
            rows,
            numeric: numeric.to_vec(),
        }
    }
}

impl Document {
    /// An empty document.
    pub(crate) fn new() -> Self {
        Document::default()
    }

    /// Adds a block.
    pub(crate) fn push(&mut self, block: Block) -> &mut Self {
        self.blocks.push(block);
        self
    }

    /// Adds a section heading.
    pub(crate) fn heading(&mut self, text: impl Into<String>) -> &mut Self {
        self.push(Block::Heading {
            level: 2,
            text: text.into(),
        })
    }

    /// Adds a table's title line.
    pub(crate) fn title(&mut self, text: impl Into<String>) -> &mut Self {
        self.push(Block::Title(text.into()))
    }

    /// Adds a table.
    pub(crate) fn table(&mut self, table: Table) -> &mut Self {
        self.push(Block::Table(table))
    }

    /// Adds notes, if there are any.
    pub(crate) fn notes(&mut self, lines: Vec<String>) -> &mut Self {
        if !lines.is_empty() {
            self.push(Block::Notes(lines));
        }
        self
    }

    /// Adds notes a terminal wraps to its width.
    pub(crate) fn prose(&mut self, lines: Vec<String>) -> &mut Self {
        self.push(Block::Prose(lines))
    }

    /// Adds a line of text.
    pub(crate) fn paragraph(&mut self, text: impl Into<String>) -> &mut Self {
        self.push(Block::Paragraph(text.into()))
    }

    /// Adds an empty line.
    pub(crate) fn gap(&mut self) -> &mut Self {
        self.push(Block::Gap)
    }
}

/// How a document is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Terminal tables and plain lines.
    Terminal,
    /// GitHub-flavoured Markdown.
    Markdown,
}
