"""The daemon fixtures (``daemon``, ``manual``) of the test kit, Tests/kit/daemon_fixtures.py.
Run with Clients/pytest.ini (make test-terminal), which puts the kit and the package on the path."""

from daemon_fixtures import *  # noqa: F401,F403 (pytest finds the fixtures and the hook here)
