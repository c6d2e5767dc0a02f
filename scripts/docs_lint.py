#!/usr/bin/env python3
"""Checks reader-facing text before DocC renders it.

    scripts/docs_lint.py CATALOG SYMBOL_GRAPH_DIR

Used by scripts/docs.sh. Fails (status 1, one line per finding) when:
  - an abstract ends in a colon: the first paragraph of a symbol's doc comment, or of an article,
    module page or type page of the catalog (the abstract stands alone in lists and search
    results, where the sample it introduces is not shown);
  - the text names a path of this repository (`scripts/…`, `Benchmarks/…`, `Tests/Seed…`, a
    `.sh` script…): readers have the package, not its repository.
"""

import glob
import json
import os
import re
import sys

REPOSITORY_PATH = re.compile(
    r"\b(scripts|Benchmarks|Fuzz|Tools|Examples|Docs)/"
    r"|\bSources/(Endpoint|CCurl)"
    r"|\bTests/(Endpoint|Seed|Servers)"
    r"|\b[\w-]+\.sh\b"
)


def first_paragraph(lines):
    paragraph = []
    for line in lines:
        if not line.strip():
            if paragraph:
                break
            continue
        if line.lstrip().startswith(("```", "@", "- ", "|")):
            break
        paragraph.append(line.strip())
    return " ".join(paragraph)


def check_catalog(catalog):
    findings = []
    for path in sorted(glob.glob(os.path.join(catalog, "**", "*.md"), recursive=True)):
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        for number, line in enumerate(lines, start=1):
            if REPOSITORY_PATH.search(line):
                findings.append(f"{path}:{number}: a repository path in reader-facing text: "
                                f"{line.strip()[:100]}")
        body = [line for line in lines[1:]] if lines and lines[0].startswith("# ") else lines
        # A type or module page without its own abstract starts with a section.
        if body and next((l for l in body if l.strip()), "").startswith("#"):
            continue
        abstract = first_paragraph(body)
        if abstract.endswith(":"):
            findings.append(f"{path}: the abstract ends in a colon: …{abstract[-80:]}")
    return findings


def check_symbols(graphs):
    findings = []
    for path in sorted(glob.glob(os.path.join(graphs, "*.symbols.json"))):
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            comment = symbol.get("docComment")
            if not comment:
                continue
            name = "/".join(symbol["pathComponents"])
            where = symbol.get("location", {}).get("uri", "").split("/Sources/")[-1]
            texts = [line["text"] for line in comment["lines"]]
            abstract = first_paragraph(texts)
            if abstract.endswith(":"):
                findings.append(f"Sources/{where}: {name}: the abstract ends in a colon")
            for text in texts:
                if REPOSITORY_PATH.search(text):
                    findings.append(f"Sources/{where}: {name}: a repository path in reader-facing "
                                    f"text: {text.strip()[:100]}")
    return sorted(set(findings))


def main():
    catalog, graphs = sys.argv[1:3]
    findings = check_catalog(catalog) + check_symbols(graphs)
    for finding in findings:
        print(f"docs lint: {finding}", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
