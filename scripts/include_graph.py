#!/usr/bin/env python3
"""The include graph of src/, by part, checked against what each part may depend on.

    scripts/include_graph.py            # the arrows between parts, the disallowed ones marked, exit 1 if any
    scripts/include_graph.py --dot      # the same as a Graphviz digraph (disallowed arrows in red)
    scripts/include_graph.py --root DIR # another checkout (e.g. an older commit's worktree)

A part is a folder of src/ (src/vulkan/runtime, kernels and fusion are parts of their own); src/backends.cpp, the
list of built-in backends, sits above them all. A public header include/nxv/X.hpp counts as the part that
implements it (PUBLIC_HEADERS below). docs/architecture.md explains the layers; CI runs this script as a test.
"""
import argparse
import collections
import pathlib
import re
import sys

# What each part may include (besides itself and the C++/GLSL shared sources, which every part may include).
ALLOWED = {
    "core": set(),
    "shared": set(),
    "io": {"core", "ops"},  # safetensors builds tensors from bytes
    "ops": {"core", "trace"},  # apply() hands calls on traced tensors to their tracer
    "trace": {"core", "ops", "grad"},  # a custom_vjp node keeps the user's rule (nxv/grad.hpp's CustomVjp)
    "reference": {"core", "ops"},
    "grad": {"core", "ops", "trace"},
    "data": {"core", "ops", "io"},
    "nn": {"core", "ops", "trace", "grad", "io"},
    "vulkan/runtime": {"core", "ops"},
    "vulkan/kernels": {"core", "ops", "vulkan/runtime"},
    "vulkan/fusion": {"core", "ops", "trace", "vulkan/runtime", "vulkan/kernels"},
    "vulkan": {"core", "ops", "vulkan/runtime", "vulkan/kernels"},  # the backend: its kernels behind one switch
    "backends": {"core", "vulkan/runtime"},
    "mcmc": {"core", "ops", "trace", "grad", "nn"},
    "linalg": {"core", "ops"},  # built from ops; its own ops' kernels live in reference/ and vulkan/  # distributions draw from nn's key tensors; diagnostics on the host
}

# Which part implements each public header.
PUBLIC_HEADERS = {
    "backend.hpp": "core", "dtype.hpp": "core", "error.hpp": "core", "shape.hpp": "core", "tensor.hpp": "core",
    "ops.hpp": "ops", "indexing.hpp": "ops", "conv.hpp": "ops",
    "defn.hpp": "trace", "grad.hpp": "grad", "nn.hpp": "nn", "mcmc_diagnostics.hpp": "mcmc", "dist.hpp": "mcmc",
    "bijections.hpp": "mcmc", "linalg.hpp": "linalg",
    # nxv/vulkan.hpp's functions live in the runtime, but for backend() (src/vulkan) and compiler() (fusion).
    "vulkan.hpp": "vulkan/runtime", "fallback.hpp": "vulkan/runtime", "nxv.hpp": "backends",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".cpp", ".hpp", ".h", ".def", ".comp", ".glsl")


def part_of_path(rel):
    """The part of a file under src/ (a path relative to src/), or None."""
    parts = pathlib.PurePosixPath(rel).parts
    if len(parts) == 1:
        return pathlib.PurePosixPath(rel).stem  # src/backends.cpp
    if parts[0] == "vulkan" and len(parts) > 2:
        return "vulkan/" + parts[1]
    return parts[0]


def part_of_include(name, including_part):
    if name.startswith("nxv/"):
        return PUBLIC_HEADERS.get(name[4:], "core")
    if name.startswith("lib/") or "/" not in name:  # a shader's own library, a sibling file
        return including_part
    return part_of_path(name)


def graph(root):
    edges = collections.Counter()
    examples = {}
    src = root / "src"
    for path in sorted(src.rglob("*")):
        if path.suffix not in SOURCES or not path.is_file():
            continue
        rel = path.relative_to(src).as_posix()
        source = part_of_path(rel)
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            target = part_of_include(name, source)
            if target in (source, "shared"):
                continue
            edges[(source, target)] += 1
            examples.setdefault((source, target), f"src/{rel} includes \"{name}\"")
    return edges, examples


def disallowed(edge):
    source, target = edge
    return target not in ALLOWED.get(source, set())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    parser.add_argument("--dot", action="store_true", help="print a Graphviz digraph")
    args = parser.parse_args()
    edges, examples = graph(args.root)
    bad = sorted(e for e in edges if disallowed(e))
    if args.dot:
        print("digraph src {\n  rankdir=BT;")
        for (s, t), n in sorted(edges.items()):
            colour = ' color=red' if (s, t) in bad else ""
            print(f'  "{s}" -> "{t}" [label={n}{colour}];')
        print("}")
    else:
        print(f"{len(edges)} arrows between the parts of src/ (count of #include lines):")
        for (s, t), n in sorted(edges.items()):
            mark = "   <-- not allowed: " + examples[(s, t)] if (s, t) in bad else ""
            print(f"  {s:15} -> {t:15} {n:3}{mark}")
        print(f"{len(bad)} arrows that the parts' dependency rules do not allow")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
