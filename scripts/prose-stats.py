#!/usr/bin/env python3
"""Sentence lengths in the README and docs/: the count, the mean, and every sentence over
a limit, so that prose stays at about 20 words a sentence.

Usage: scripts/prose-stats.py [--over N] [--no-tables] [FILE...]
(default: README.md docs/*.md, N=45; --no-tables leaves table cells out)

What counts as prose: paragraphs, list items and table cells, outside code blocks and
headings. A table cell or list item of fewer than 4 words (a name, a figure) is a label,
not a sentence, and is left out. Sentences end at `.`, `!` or `?` followed by a space and
a capital letter, a backtick, `*`, `(` or `[`. Inline code counts as one word a token.
"""
import glob
import re
import sys

END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\[])")
LIST = re.compile(r"\s*([-*+]|\d+\.)\s+")


def units(text, tables=True):
    """The prose units of a Markdown text: (line, text) per paragraph, item or cell."""
    code, para, start = False, [], 0
    for n, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            code = not code
            if para:
                yield start, " ".join(para)
                para = []
            continue
        if code:
            continue
        boundary = not stripped or stripped.startswith(("#", "|")) or LIST.match(line)
        if boundary and para:
            yield start, " ".join(para)
            para = []
        if stripped.startswith("|"):
            if set(stripped) <= set("|-: ") or not tables:
                continue
            for cell in stripped.strip("|").split("|"):
                yield n, cell.strip()
            continue
        if stripped.startswith("#") or not stripped:
            continue
        if not para:
            start = n
        para.append(LIST.sub("", line, count=1).strip() if LIST.match(line) else stripped)
    if para:
        yield start, " ".join(para)


def sentences(path, tables=True):
    for line, text in units(open(path, encoding="utf-8").read(), tables):
        words = text.split()
        if len(words) < 4:
            continue
        for sentence in END.split(text):
            count = len(sentence.split())
            if count:
                yield line, count, sentence


def main(argv):
    over, tables = 45, True
    while argv[:1] in (["--over"], ["--no-tables"]):
        if argv[0] == "--over":
            over, argv = int(argv[1]), argv[2:]
        else:
            tables, argv = False, argv[1:]
    files = argv or ["README.md"] + sorted(glob.glob("docs/*.md"))
    counts, long = [], []
    for path in files:
        for line, count, sentence in sentences(path, tables):
            counts.append(count)
            if count > over:
                long.append((path, line, count, sentence))
    mean = sum(counts) / max(len(counts), 1)
    print(f"{len(counts)} sentences in {len(files)} files, mean {mean:.1f} words, "
          f"{sum(c > 30 for c in counts)} over 30, {len(long)} over {over}")
    for path, line, count, sentence in long:
        print(f"{path}:{line} ({count} words): {sentence[:90]}...", flush=True)
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
