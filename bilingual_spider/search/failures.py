"""What went wrong with one search call, and so what to do about it.

A failed call is one of four kinds, and its kind decides the retry:

=================  ===========================================  ==============================
kind               what                                          what the service does
=================  ===========================================  ==============================
``THROTTLED``      429, 503: the server says "slower"            the adapter pauses for the
                                                                 ``Retry-After`` (else back-off)
                                                                 and the call is retried
``TRANSIENT``      408, other 5xx, timeouts, connections lost    the call is retried after a
                                                                 back-off of its own
``UNREADABLE``     an answer that does not parse, or too large   retried once, then given up
``KEY_REFUSED``    401, 403 from a service that takes a key (or  the adapter stops at once, with
                   its own way of saying the key is wrong)       one ERROR
``REFUSED``        other 4xx: this query is wrong                given up, not retried
=================  ===========================================  ==============================

Every :class:`CallFailure` carries a ``reason`` that is never empty (an exception whose message is
empty is named by what happened and its class: ``connection lost mid-answer
(ResponseDataLossError)``) and a short ``label`` (``HTTP 503``, ``timeout``, ``not JSON``)
that error-rate warnings count. Plain Python: exceptions are recognised by their class names, so
this module imports no Scrapy or Twisted.
"""

from __future__ import annotations

from dataclasses import dataclass

THROTTLED = "throttled"
TRANSIENT = "transient"
UNREADABLE = "unreadable"
KEY_REFUSED = "key_refused"
REFUSED = "refused"

THROTTLE_STATUSES = frozenset({429, 503})

_TIMEOUTS = frozenset({"TimeoutError", "DownloadTimeoutError", "TCPTimedOutError"})
_TOO_LARGE = frozenset({"DownloadCancelledError", "CancelledError"})
_CUT = frozenset({"ResponseDataLossError", "ResponseFailed", "PotentialDataLoss", "_DataLoss"})


@dataclass(frozen=True, slots=True)
class CallFailure:
    """One failed call: its kind (the module's table), a short label, and the full reason."""

    kind: str
    label: str
    reason: str

    @property
    def retry_limit(self) -> int | None:
        """Retries allowed for this kind (None: the service's own limit)."""
        if self.kind == UNREADABLE:
            return 1
        if self.kind in (KEY_REFUSED, REFUSED):
            return 0
        return None

    @property
    def counts_against_the_service(self) -> bool:
        """A failure of the service itself (not of one query), for its circuit breaker."""
        return self.kind in (THROTTLED, TRANSIENT, UNREADABLE)


def status_failure(status: int, key_refused: bool = False) -> CallFailure:
    """The failure of an answer with a non-readable ``status``; ``key_refused`` when the
    adapter recognised its service saying the key is wrong (401, 403, Brave's 422)."""
    label = reason = f"HTTP {status}"
    if key_refused:
        reason = f"{label}: the service refused the key"
        return CallFailure(KEY_REFUSED, label, reason)
    if status in THROTTLE_STATUSES:
        return CallFailure(THROTTLED, label, reason)
    if status == 408 or status >= 500:
        return CallFailure(TRANSIENT, label, reason)
    return CallFailure(REFUSED, label, reason)


def unreadable_failure(problem: str) -> CallFailure:
    """An answer that came but cannot be read (not the service's format)."""
    return CallFailure(UNREADABLE, "unreadable answer", f"unreadable answer: {problem}")


def exception_failure(exc: BaseException) -> CallFailure:
    """A call that ended in an exception (timeout, connection lost, cancelled for its size)."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & _TIMEOUTS:
        return _exception_failure(TRANSIENT, "timeout", exc)
    if names & _TOO_LARGE:
        return _exception_failure(UNREADABLE, "answer too large or cancelled", exc)
    if names & _CUT:
        return _exception_failure(TRANSIENT, "connection lost mid-answer", exc)
    return CallFailure(TRANSIENT, type(exc).__name__, exception_reason(exc))


def _exception_failure(kind: str, label: str, exc: BaseException) -> CallFailure:
    """The failure of a known exception: its reason says what happened in words, then what
    the exception says (``connection lost mid-answer (ResponseDataLossError)``)."""
    return CallFailure(kind, label, f"{label} ({exception_reason(exc)})")


def exception_reason(exc: BaseException) -> str:
    """``ClassName: message``; the class name alone when the message is empty, and the
    message of the exception it wraps when it has one (Twisted's ``ResponseFailed``)."""
    name = type(exc).__name__
    inner = _wrapped(exc)
    if inner is not None and (hasattr(exc, "reasons") or not str(exc).strip()):
        return f"{name} ({exception_reason(inner)})"
    text = str(exc).strip()
    if not text or text in ("[]", "()"):
        return name
    return f"{name}: {text}"


def _wrapped(exc: BaseException) -> BaseException | None:
    """The exception ``exc`` carries: its cause, or the first of Twisted's ``reasons`` list."""
    if exc.__cause__ is not None:
        return exc.__cause__
    reasons = getattr(exc, "reasons", None)
    if isinstance(reasons, list) and reasons:
        value = getattr(reasons[0], "value", reasons[0])
        if isinstance(value, BaseException) and value is not exc:
            return value
    return None
