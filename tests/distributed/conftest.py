"""The fixture of the Redis tests of the distributed package."""

from __future__ import annotations

import pytest

from bilingual_spider.distributed.connection import PatientRedis
from tests.conftest import REDIS_URL


@pytest.fixture
def redis(redis_prefix):
    connection = PatientRedis(REDIS_URL)
    yield connection
    connection.close()
