"""A tool call whose forms are answered on the server's web pages, through the official MCP
Python SDK client (`mcp`).

    python pages_client.py ERA CLIENT TOOL ARGS BODIES COMMAND [ARGS...]

ERA is `legacy` (the initialize handshake, 2025-11-25: each link pushed) or `2026-07-28`
(input_required rounds). CLIENT is `url` (the client declares URL-mode elicitation only,
as a client that shows no forms would be treated) or `none` (it declares no elicitation:
the server answers with the link in the tool result, and the tool is called again with the
same arguments until it answers without one). ARGS is the tool's arguments as JSON;
BODIES a JSON list of what the person posts on each page, in order
(`application/x-www-form-urlencoded`, as the page's form sends it; a list of bodies for
one page posts each in turn, the last one taken). The person opens each
page (GET, expecting 200) and posts its body from the page's own origin.

Prints one JSON object: the tool's final text, the links asked (message, url, and the
elicitationId on 2025-11-25), the statuses of each page's GET and POST, and the
`notifications/elicitation/complete` ids received.
"""

import asyncio
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

import mcp_types as types
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters

ERA, CLIENT, TOOL, ARGS, BODIES = sys.argv[1:6]
COMMAND = sys.argv[6:]
ARGS = json.loads(ARGS)
BODIES = json.loads(BODIES)

asked = []
statuses = []
completed = []
LINK = re.compile(r"https?://[^\s]+/elicit/p/[A-Za-z0-9_-]+")


def request(url, body=None):
    """GET (no body) or POST `body` to `url`; the status."""
    parts = urllib.parse.urlsplit(url)
    headers = {"Origin": f"{parts.scheme}://{parts.netloc}"}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    data = body.encode() if body is not None else None
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


async def answer_page(url):
    """The person: opens the page, posts the next body (or each of a list of bodies, the
    last of which must be taken)."""
    bodies = BODIES.pop(0)
    bodies = bodies if isinstance(bodies, list) else [bodies]
    seen = [await asyncio.to_thread(request, url)]
    for body in bodies:
        seen.append(await asyncio.to_thread(request, url, body))
    statuses.append(seen)
    if seen[-1] != 200:
        raise RuntimeError(f"the page refused {bodies[-1]!r}: {seen}")


async def elicit(context, params):
    if getattr(params, "mode", None) != "url":
        raise RuntimeError(f"expected a URL-mode elicitation, got {params}")
    asked.append({"message": params.message, "url": params.url,
                  "elicitationId": getattr(params, "elicitation_id", None)})
    await answer_page(params.url)
    return types.ElicitResult(action="accept")


async def on_message(message):
    root = getattr(message, "root", message)
    if getattr(root, "method", None) == "notifications/elicitation/complete":
        completed.append(root.params.elicitation_id)


if CLIENT == "url":
    # A client that takes URL mode only: the SDK declares both modes for any callback.
    declared = getattr(ClientSession, "_build_capabilities", None)

    def url_only(self, *args, **kwargs):
        capabilities = declared(self, *args, **kwargs)
        if capabilities.elicitation is not None:
            capabilities.elicitation = types.ElicitationCapability(url=types.UrlElicitationCapability())
        return capabilities

    if declared is None:
        raise RuntimeError("the SDK's capabilities cannot be narrowed to URL mode")
    ClientSession._build_capabilities = url_only


async def main():
    server = StdioServerParameters(command=COMMAND[0], args=COMMAND[1:])
    callback = elicit if CLIENT == "url" else None
    out = {}
    async with Client(server, mode=ERA, elicitation_callback=callback, message_handler=on_message) as client:
        for _ in range(10):
            result = await client.call_tool(TOOL, ARGS)
            text = result.content[0].text
            link = LINK.search(text) if CLIENT == "none" else None
            if link is None:
                break
            asked.append({"message": text, "url": link.group(0)})
            await answer_page(link.group(0))
        out["text"] = text
        # Notifications may trail the result a little.
        await asyncio.sleep(0.2)
    out.update({"asked": asked, "statuses": statuses, "completed": completed})
    print(json.dumps(out))


asyncio.run(main())
