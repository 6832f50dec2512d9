"""The developers' guide: no class over 500 lines and no function over 120, in the code (Python and
the Java extension; tests are not held to it). A class that grows past it is split along what it
holds, as scenarios/reading and the extension's Adjudicator were."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_CLASS, MAX_FUNCTION = 500, 120

JAVA_NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])\'', re.S)
JAVA_TYPE = re.compile(r"\b(class|interface|enum|record)\s+(\w+)")
JAVA_METHOD = re.compile(r"^\s*(?:(?:public|private|protected|static|final|synchronized|abstract|default)\s+)*"
                         r"(?:<[^>]+>\s+)?[\w<>\[\],.? ]+\s+(\w+)\s*\([^;]*$")


def code_files(suffix: str) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", f"*{suffix}"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    return [ROOT / f for f in listed if not f.startswith("tests/") and (ROOT / f).is_file()]


def python_offenders(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        size = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
        if isinstance(node, ast.ClassDef) and size > MAX_CLASS:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: class {node.name}: {size} lines")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and size > MAX_FUNCTION:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: function {node.name}: {size} lines")
    return found


def java_offenders(path: Path, root: Path = ROOT) -> list[str]:
    """Types and methods by their braces, comments and string literals blanked first (lines kept)."""
    text = JAVA_NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), path.read_text(encoding="utf-8"))
    found, open_blocks, pending = [], [], None
    for number, line in enumerate(text.splitlines(), start=1):
        declared = JAVA_TYPE.search(line)
        method = JAVA_METHOD.match(line)
        if declared:
            pending = ("class", declared.group(2), number)
        elif method and method.group(1) not in ("if", "for", "while", "switch", "catch", "return", "new", "else"):
            pending = ("method", method.group(1), number)
        for char in line:
            if char == "{":
                open_blocks.append(pending or (None, None, number))
                pending = None
            elif char == "}" and open_blocks:
                kind, name, start = open_blocks.pop()
                size = number - start + 1
                if (kind == "class" and size > MAX_CLASS) or (kind == "method" and size > MAX_FUNCTION):
                    found.append(f"{path.relative_to(root)}:{start}: {kind} {name}: {size} lines")
        if line.rstrip().endswith(";") and pending and pending[0] == "method":
            pending = None  # a declaration without a body (an interface's method)
    return found


@pytest.mark.slow
def test_no_class_over_500_lines_and_no_function_over_120():
    offenders = [o for f in code_files(".py") for o in python_offenders(f)]
    offenders += [o for f in code_files(".java") for o in java_offenders(f)]
    assert offenders == [], "\n".join(offenders)


def test_the_java_reading_finds_a_long_method_and_a_long_class(tmp_path):
    body = "\n".join(f'    int x{i} = "{{";  // }}' for i in range(130))
    source = tmp_path / "Big.java"
    source.write_text("final class Big {\n  void big() {\n" + body + "\n  }\n" + "\n" * 400 + "}\n", encoding="utf-8")
    assert java_offenders(source, tmp_path) == ["Big.java:2: method big: 132 lines", "Big.java:1: class Big: 534 lines"]
