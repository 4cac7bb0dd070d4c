"""The editors' and caseworkers' console as a browser without JavaScript uses it: a cookie jar,
the pages, and the sign-in form with its CSRF token (the tests of cases and of rumours)."""

from __future__ import annotations

import aiohttp

from tests.actions.console_support import csrf_in


class ConsoleForms:
    """Signs in with a one-time code and reads the console's pages at ``url``."""

    def __init__(self, url: str, session: aiohttp.ClientSession) -> None:
        self.url = url
        self.session = session

    async def sign_in(self, code: str) -> None:
        form = await self.page("/console/signin")
        async with self.session.post(
            f"{self.url}/console/signin", data={"csrf": csrf_in(form), "code": code}
        ) as response:
            assert response.status == 200, await response.text()

    async def page(self, path: str) -> str:
        async with self.session.get(f"{self.url}{path}") as response:
            assert response.status == 200, path
            return await response.text()
