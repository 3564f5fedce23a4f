"""A clock the test moves by hand (``clock.now += 5``): code that takes a ``clock`` callable is
tested without waiting."""


class FakeClock:
    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now
