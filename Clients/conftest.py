"""The daemon fixtures (``daemon``, ``manual``) for every Python-driven suite under Clients/:
they live in the test kit, Tests/kit/daemon_fixtures.py, which Tests/terminal shares."""

from daemon_fixtures import *  # noqa: F401,F403 (pytest finds the fixtures and the hook here)
