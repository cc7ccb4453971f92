//! Errors: the core's [`CoreError`] and the binding's own checks become exceptions of
//! `parbleu.errors`, through `?`.
//!
//! Binding functions return [`Result`]; `?` converts a core error or a `PyErr` into
//! [`Error`], and PyO3 turns that into the Python exception when the call returns. The classes
//! are Python's own (`parbleu.errors`), looked up once per interpreter and cached, so every
//! `isinstance`, `except` and pickle of them behaves as for an error raised in Python.

use parbleu_core::Error as CoreError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// What a binding call can fail with.
#[derive(Debug)]
pub(crate) enum Error {
    /// A Python exception already (a failed conversion, Ctrl-C).
    Py(PyErr),
    /// A core error: its class follows from its kind.
    Core(CoreError),
    /// A check of the binding's own, raised as `class` with this message.
    Raise(ErrorClass, String),
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error::Py(e)
    }
}

// Conversions that cannot fail (`into_pyobject` of a number).
impl From<std::convert::Infallible> for Error {
    fn from(e: std::convert::Infallible) -> Self {
        match e {}
    }
}

impl From<CoreError> for Error {
    fn from(e: CoreError) -> Self {
        Error::Core(e)
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> Self {
        let (cls, msg) = match e {
            Error::Py(e) => return e,
            Error::Core(e) => (ErrorClass::of(&e), e.to_string()),
            Error::Raise(cls, msg) => (cls, msg),
        };
        Python::attach(|py| cls.new_err(py, msg))
    }
}

/// The classes of `parbleu.errors` the binding raises: every error it raises on purpose is one
/// of these (never a bare `ValueError`), with the message the Python layer gives for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorClass {
    InvalidOption,
    LengthMismatch,
    Statistics,
}

impl ErrorClass {
    const ALL: [ErrorClass; 3] = [
        ErrorClass::InvalidOption,
        ErrorClass::LengthMismatch,
        ErrorClass::Statistics,
    ];

    fn name(self) -> &'static str {
        match self {
            ErrorClass::InvalidOption => "InvalidOptionError",
            ErrorClass::LengthMismatch => "LengthMismatchError",
            ErrorClass::Statistics => "StatisticsError",
        }
    }

    fn of(e: &CoreError) -> Self {
        match e {
            CoreError::InvalidOption { .. } => ErrorClass::InvalidOption,
            CoreError::LengthMismatch { .. } => ErrorClass::LengthMismatch,
            CoreError::BadStatsShape { .. } => ErrorClass::Statistics,
        }
    }

    /// The binding's own error of this class with `msg` (`return Err(cls.err(msg))`).
    pub(crate) fn err(self, msg: impl Into<String>) -> Error {
        Error::Raise(self, msg.into())
    }

    /// The exception of this class with `msg`; if `parbleu.errors` cannot be imported (a
    /// broken install), that import error instead.
    fn new_err(self, py: Python<'_>, msg: String) -> PyErr {
        static CLASSES: PyOnceLock<[Py<PyType>; 3]> = PyOnceLock::new();
        let classes = CLASSES.get_or_try_init(py, || -> PyResult<_> {
            let m = py.import("parbleu.errors")?;
            let get = |c: ErrorClass| -> PyResult<Py<PyType>> {
                Ok(m.getattr(c.name())?.cast_into::<PyType>()?.unbind())
            };
            Ok([get(Self::ALL[0])?, get(Self::ALL[1])?, get(Self::ALL[2])?])
        });
        match classes {
            Ok(c) => PyErr::from_type(c[self as usize].bind(py).clone(), (msg,)),
            Err(e) => e,
        }
    }
}
