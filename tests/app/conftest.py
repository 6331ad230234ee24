"""AppTest runs through app.py on every page, as the real server does (see rankviz.ui.testing)."""

import pytest

from rankviz.ui.testing import use_navigation_pages


@pytest.fixture(autouse=True, scope="session")
def _navigation_pages():
    use_navigation_pages()
