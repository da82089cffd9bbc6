"""The project's style sheets are linked, not carried in every page: served under a name holding a hash of their
content, cached for a year; any other name is not found."""

from __future__ import annotations

import pytest
from fastapi import HTTPException

from vtt.web import styles


@pytest.mark.parametrize("name", styles.SHEETS)
def test_a_sheet_is_served_under_its_content_hash_and_cached(name: str) -> None:
    prefix, digest, file = styles.url(name).rsplit("/", 2)
    assert prefix == styles.PREFIX and file == name
    response = styles._sheet(digest, name)
    assert response.body == (styles.STATIC / name).read_bytes()
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.media_type == "text/css"


def test_a_changed_sheet_gets_a_new_name() -> None:
    assert styles._digest(b"a { color: red }") != styles._digest(b"a { color: blue }")


@pytest.mark.parametrize(("digest", "name"), [("0" * 16, "table.css"), (None, "../app.py"), (None, "other.css")])
def test_any_other_name_is_not_found(digest: str | None, name: str) -> None:
    real = styles.url("table.css").rsplit("/", 2)[1]
    with pytest.raises(HTTPException) as found:
        styles._sheet(digest or real, name)
    assert found.value.status_code == 404
