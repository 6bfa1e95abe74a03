#!/usr/bin/env python3
"""Checks that the repository's links resolve inside the repository.

    scripts/check_links.py   # exit 1, listing each broken link, when one does not

Checked: every relative Markdown link (`[text](path)`) in a tracked .md file, and every path of the repository that a
Markdown file or a source comment spells in backticks or as a plain word starting with one of the top-level folders
(`src/vulkan/fusion/plan.cpp`, `docs/architecture.md`); paths with wildcards or placeholders are skipped.
bench/RESULTS.md is a log of past runs: its paths are left as they were when each run was recorded.
CI runs this script as the ctest test `links`.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOP = ("src", "include", "apps", "tests", "docs", "bench", "scripts", "cmake", ".ci")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
REPO_PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*\w)" % "|".join(re.escape(t) for t in TOP))
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".def", ".comp", ".glsl", ".cmake", ".py", ".txt"}
# A log of past runs keeps the paths of its time; the fusion compiler names its generated source as if it were a
# kernel file beside the others (so that includes resolve alike).
SKIPPED = {"bench/RESULTS.md"}
VIRTUAL = {"src/vulkan/kernels/fused.comp"}


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if f not in SKIPPED]


def exists(path, relative_to, files):
    """Whether `path` names a file or folder of the repository, or the start of file names (`src/data/batches` for
    batches.cpp and .hpp, `src/grad/rules_` for the rule files)."""
    path = path.split("#", 1)[0].rstrip(".,:;")
    if not path or (relative_to / path).exists() or (ROOT / path).exists():
        return True
    return any(f.startswith(path) for f in files)


def main():
    broken = []
    files = tracked_files()
    for name in files:
        file = ROOT / name
        if file.suffix not in SOURCE_SUFFIXES | {".md"} and name not in (".ci/run",) and not name.startswith("scripts/"):
            continue
        try:
            text = file.read_text()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("#include"):
                continue  # include paths are relative to an include directory, and the compiler checks them
            candidates = []
            if file.suffix == ".md":
                for link in MARKDOWN_LINK.findall(line):
                    if not re.match(r"^[a-z]+:", link) and not link.startswith("#"):
                        candidates.append(link)
            for path in REPO_PATH.findall(line):
                if any(c in path for c in "*<>{}$") or path.endswith("/...") or re.search(r"/[A-Z]\.", path):
                    continue
                candidates.append(path)
            for c in candidates:
                if c in VIRTUAL:
                    continue
                if not exists(c, file.parent, files):
                    broken.append(f"{name}:{number}: {c}")
    for b in broken:
        print(b)
    print(f"check_links: {len(broken)} links that do not resolve inside the repository")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
