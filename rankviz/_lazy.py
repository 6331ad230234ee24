"""Lazy public names for a package: ``import rankviz.x`` stays cheap, a name loads on first use.

>>> getattr_, dir_ = lazy_names("rankviz", {"parse_measure": "rankviz.evaluation.measures"})
>>> getattr_("parse_measure").__name__
'parse_measure'
"""

from __future__ import annotations

import importlib
import sys

__all__ = ["lazy_names"]


def lazy_names(package: str, where: dict[str, str | tuple[str, str | None]]):
    """``(__getattr__, __dir__)`` for ``package``, serving each name from the module ``where`` gives.

    ``where[name]`` is a module path (the attribute of the same name is served), or a pair
    ``(module path, attribute)`` where the attribute is named otherwise, ``None`` meaning the
    module itself. A name is imported once, then kept in the package's globals.
    """
    def __getattr__(name: str):
        target = where.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module_path, attribute = (target, name) if isinstance(target, str) else target
        module = importlib.import_module(module_path)
        value = module if attribute is None else getattr(module, attribute)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__
