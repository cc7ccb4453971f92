"""Frozen records: what ``@dataclass(frozen=True)`` gives the registries, without ``dataclasses``.

``import dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``), and
each decorated class compiles generated methods: a good part of what a one-file ``parbleu``
command costs before it scores anything. The registries' entries (:mod:`.metrics.registry`,
:mod:`.metrics.schema`, :mod:`.tokenizers.registry`) need only keyword construction with
defaults, immutability, equality, hashing and a readable ``repr``, so :func:`record` writes
those with plain functions. Type checkers see a dataclass (PEP 681 ``dataclass_transform``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar, cast

__all__ = ["FrozenRecordError", "field", "record", "record_dict", "record_fields"]

T = TypeVar("T")
C = TypeVar("C", bound=type)

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**kwargs: Any) -> Callable[[T], T]:
        return lambda f: f


class FrozenRecordError(AttributeError):
    """Assigning to a field of a record (as ``dataclasses.FrozenInstanceError``)."""


class _Factory:
    """A default made by calling ``make`` for each new record (``default_factory``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """Return a field whose default is ``default_factory()``, called for each new record."""
    return cast(T, _Factory(default_factory))  # typed as the value, as ``dataclasses.field``


def record_fields(cls_or_record: Any) -> tuple[str, ...]:
    """Return the field names of a record class or record, in declaration order."""
    names: tuple[str, ...] = cls_or_record.__record_fields__
    return names


def record_dict(rec: Any) -> dict[str, Any]:
    """Return ``{field: value}`` of a record (shallow, as the fields hold plain values)."""
    return {name: getattr(rec, name) for name in record_fields(rec)}


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: C | None = None, *, kw_only: bool = False) -> Any:
    """Make ``cls`` a frozen record of its annotated fields (class attributes: defaults).

    Parameters
    ----------
    cls
        The class (``@record``), or ``None`` (``@record(kw_only=True)``).
    kw_only
        Fields are given by keyword only.

    Returns
    -------
    type
        The class, with ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, and
        ``__setattr__``/``__delattr__`` that refuse.
    """
    if cls is None:
        return lambda c: _make(c, kw_only)
    return _make(cls, kw_only)


def _make(cls: C, kw_only: bool) -> C:
    # The class's own annotations (records do not inherit fields).
    names = tuple(cls.__annotations__)
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    for n, d in defaults.items():
        if isinstance(d, _Factory):
            delattr(cls, n)  # no shared class attribute for a per-record default
    qualname = cls.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if args and kw_only:
            raise TypeError(f"{qualname}() takes keyword arguments only")
        if len(args) > len(names):
            raise TypeError(f"{qualname}() takes {len(names)} arguments, got {len(args)}")
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{qualname}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{qualname}() got multiple values for argument {key!r}")
            values[key] = value
        for name in names:
            if name in values:
                value = values[name]
            elif name in defaults:
                value = defaults[name]
                if isinstance(value, _Factory):
                    value = value.make()
            else:
                raise TypeError(f"{qualname}() missing required argument {name!r}")
            object.__setattr__(self, name, value)

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{qualname}({inner})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, n) for n in names))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r}")

    for fn in (__init__, __repr__, __eq__, __hash__, __setattr__, __delattr__):
        fn.__qualname__ = f"{qualname}.{fn.__name__}"
        setattr(cls, fn.__name__, fn)
    setattr(cls, "__record_fields__", names)  # noqa: B010 (a name mypy does not know)
    setattr(cls, "__match_args__", () if kw_only else names)  # noqa: B010
    return cls
