"""No value reaches a NiceGUI props, classes or style string in `vtt/web`, and no page or component renders text as
markup.

NiceGUI parses `.props("...")` text into props, and Vue runs a prop whose name starts with `:` as JavaScript: a
creature id `x :data-p="code"` put into such a string runs `code` in every browser that shows it. So the text given
to `.props`, `.classes` and `.style` must be fixed: string literals, or a choice between literals (`"a" + (" b" if
x else "")`, `{"grit": "pool-grit"}[name]`); a style may also hold numbers (`f"width: {int(n)}%"`). Values go in
by key (`vtt.web.attrs.with_data`, `element.props["data-x"] = value`), under a fixed name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "vtt" / "web"
STATIC = ROOT / "static"

PARSED_METHODS = {"props", "classes", "style"}
"""Element methods whose text argument NiceGUI parses."""
MARKUP_CALLS = {"html", "markdown", "add_slot", "add_body_html", "add_head_html", "mermaid", "interactive_image"}
"""NiceGUI calls that render their text as markup or as a Vue template."""
CODE_CALLS = {"run_javascript"}
"""Calls whose text the browser runs."""
PROP_NAME = re.compile(r"[a-z][a-z0-9-]*")
MARKUP_IN_JS = re.compile(r"v-html|innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function")


def is_fixed(node: ast.expr) -> bool:
    """Whether `node` can only be one of a few string literals written in the code."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) or node.value is None
    if isinstance(node, ast.IfExp):
        return is_fixed(node.body) and is_fixed(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_fixed(node.left) and is_fixed(node.right)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        return all(is_fixed(v) for v in node.value.values)
    return False


def is_numeric_style(node: ast.expr) -> bool:
    """An f-string whose every value is `int(...)`, `float(...)` or `round(...)`: a number, never text."""
    if not isinstance(node, ast.JoinedStr):
        return False
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            call = part.value
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id in {"int", "float", "round"}
            ):
                return False
    return True


def _fixed_loop_names(tree: ast.AST) -> dict[int, set[str]]:
    """For each `for name in ("a", "b")` loop, by the line numbers of its body: the names bound to literals."""
    out: dict[int, set[str]] = {}
    for loop in ast.walk(tree):
        if (
            isinstance(loop, ast.For)
            and isinstance(loop.target, ast.Name)
            and isinstance(loop.iter, ast.Tuple | ast.List)
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in loop.iter.elts)
        ):
            for stmt in loop.body:
                for node in ast.walk(stmt):
                    if hasattr(node, "lineno"):
                        out.setdefault(node.lineno, set()).add(loop.target.id)
    return out


def _is_props(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in {"props", "_props"}


def _prop_key_ok(key: ast.expr, fixed_names: set[str]) -> bool:
    if isinstance(key, ast.Constant):
        return isinstance(key.value, str) and bool(PROP_NAME.fullmatch(key.value))
    if isinstance(key, ast.BinOp) and isinstance(key.op, ast.Add) and isinstance(key.left, ast.Constant):
        # `"data-" + name.replace(...)`: a literal prefix, so never a `:` prop
        return isinstance(key.left.value, str) and bool(PROP_NAME.fullmatch(key.left.value))
    return isinstance(key, ast.Name) and key.id in fixed_names


def _is_head_json(node: ast.expr) -> bool:
    """A call of `vtt.web.map_view.head_json`: data as JSON in a script element, escaped so that no text in it can
    end the element (tests/test_page_payload.py), never markup."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "head_json"


def problems_in(source: str, filename: str = "<source>") -> list[str]:
    """Every place in `source` where a value could reach parsed props, classes or style text, a prop with a name
    not written in the code, markup or browser code."""
    tree = ast.parse(source, filename)
    fixed_loops = _fixed_loop_names(tree)
    found: list[str] = []

    def report(node: ast.AST, what: str) -> None:
        found.append(f"{filename}:{getattr(node, 'lineno', 0)}: {what}: {ast.unparse(node)[:120]}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            args = [*node.args, *(k.value for k in node.keywords)]
            if method in PARSED_METHODS and not _is_props(node.func.value):
                for arg in args:
                    if not (is_fixed(arg) or (method == "style" and is_numeric_style(arg))):
                        report(node, f".{method}() given a value, not fixed text")
            elif method == "update" and _is_props(node.func.value):
                for arg in node.args:
                    keys = arg.keys if isinstance(arg, ast.Dict) else [None]
                    if not all(k is not None and _prop_key_ok(k, set()) for k in keys):
                        report(node, "props updated with a name not written in the code")
            elif method in MARKUP_CALLS and not (
                (method == "add_slot" and len(args) == 1 and is_fixed(args[0]))
                or (method == "add_head_html" and len(args) == 1 and _is_head_json(args[0]))
            ):
                # a slot given only its name holds the elements made in it; with a template, it renders markup
                report(node, f".{method}() renders markup")
            elif method in CODE_CALLS and not all(is_fixed(a) for a in args):
                report(node, f".{method}() given a value")
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in {"html", "sanitize"} and not (
                    isinstance(keyword.value, ast.Constant) and keyword.value.value in {False, None}
                ):
                    report(node, f"{keyword.arg}= lets text render as markup")
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Subscript)
                and _is_props(target.value)
                and not _prop_key_ok(target.slice, fixed_loops.get(target.lineno, set()))
            ):
                report(target, "a prop whose name is not written in the code")
    return found


WEB_FILES = sorted(WEB.glob("*.py"))


@pytest.mark.parametrize("path", WEB_FILES, ids=lambda p: p.name)
def test_no_values_in_props_classes_or_style_strings(path: Path) -> None:
    assert problems_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))) == []


def test_static_components_render_no_markup() -> None:
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(STATIC.glob("*.js"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MARKUP_IN_JS.search(line)
    ]
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        'ui.label("x").props(f"data-id={cid}")',
        'ui.label("x").props("dense data-id=" + cid)',
        'ui.label("x").props("data-id=%s" % cid)',
        'ui.label("x").props("data-id={}".format(cid))',
        'ui.label("x").props(add=f"data-id={cid}")',
        'ui.label("x").classes(f"pool-{name}")',
        'ui.label("x").classes(name)',
        'ui.label("x").style(f"width: {text}")',
        'ui.label("x").style(f"width: {int(n)}px; color: {colour}")',
        "el.props[name] = value",
        'el._props[":x"] = value',
        "el.props.update({name: value})",
        "ui.html(name)",
        'ui.markdown("**" + name + "**")',
        'el.add_slot("item", template)',
        "ui.add_head_html(code)",
        'ui.add_head_html(f"<script>{data}</script>")',
        'ui.run_javascript(f"go({cid})")',
        "ui.notify(name, html=True)",
        "for name in names:\n    el.props[name] = 1",
    ],
)
def test_the_check_catches(line: str) -> None:
    assert problems_in(line) != []


@pytest.mark.parametrize(
    "line",
    [
        'ui.label("x").props("dense outlined data-field=name")',
        'ui.label("x").props("dense" + (" disable" if off else ""))',
        'ui.label("x").classes({"grit": "pool-grit", "energy": "pool-energy"}[name])',
        'ui.label("x").style(f"width: {int(share)}%")',
        'el.props["data-creature"] = cid',
        'el.props.update({"data-kind": kind})',
        'for key in ("cols", "rows"):\n    el._props[key] = patch[key]',
        'el.props["data-" + name.replace("_", "-")] = str(value)',
        'el.add_slot("header")',
        'ui.add_head_html(head_json("vtt-tokens-1", tokens))',
    ],
)
def test_the_check_lets_fixed_text_pass(line: str) -> None:
    assert problems_in(line) == []
