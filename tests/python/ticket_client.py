"""Drives a ticket-wizard server with the official MCP Python SDK client (`mcp`).

    python ticket_client.py ERA COMMAND [ARGS...]

ERA is `legacy` (the initialize handshake, 2025-11-25: each step pushed) or `2026-07-28`
(input_required rounds). Every step is first answered with something unusable (a
sold-out date, a seat that is not offered, ...) and then properly: the server must ask
again with the problem above the message. Prints one JSON object: the steps asked (their
messages, field names in wire order), the tool's text, and, on 2026-07-28, what a replayed
final round got.
"""

import asyncio
import json
import sys

import mcp_types as types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

ERA, COMMAND = sys.argv[1], sys.argv[2:]

GOOD = {
    "date": {"date": "2025-02-03"},
    "seat": {"seat": "A2"},
    "popcorn": {"popcorn": True, "drink": "water"},
    "size": {"size": "large"},
}
BAD = {  # sold out (not offered); not offered; not a boolean; not an option
    "date": {"date": "2025-02-01"},
    "seat": {"seat": "Z9"},
    "popcorn": {"popcorn": "yes"},
    "size": {"size": "huge"},
}

asked = []


async def elicit(context, params):
    schema = params.requested_schema
    fields = list(schema["properties"]) if isinstance(schema, dict) else list(schema.properties)
    step = fields[0]
    tries = sum(1 for a in asked if a["fields"][0] == step)
    asked.append({"message": params.message, "fields": fields})
    if step == "size":  # the first size offered, whatever the wire values are
        options = schema["properties"]["size"]
        first = options["oneOf"][0]["const"] if "oneOf" in options else options["enum"][0]
        GOOD["size"] = {"size": first}
    content = BAD[step] if tries == 0 else GOOD[step]
    return types.ElicitResult(action="accept", content=content)


async def main():
    server = StdioServerParameters(command=COMMAND[0], args=COMMAND[1:])
    out = {}
    async with Client(server, mode=ERA, elicitation_callback=elicit) as client:
        result = await client.call_tool("book_tickets", {})
        out["text"] = result.content[0].text
        if ERA != "legacy":
            # A replay: the first round again, then its answer twice with the same state.
            session = client.session
            first = await session.call_tool("book_tickets", {}, allow_input_required=True)
            key = next(iter(first.input_requests))
            answer = {key: {"action": "accept", "content": GOOD["date"]}}
            once = await session.call_tool("book_tickets", {}, input_responses=answer,
                                           request_state=first.request_state, allow_input_required=True)
            out["once"] = type(once).__name__
            try:
                await session.call_tool("book_tickets", {}, input_responses=answer,
                                        request_state=first.request_state, allow_input_required=True)
                out["replay"] = "accepted"
            except Exception as e:  # the JSON-RPC error of a refused state
                out["replay"] = str(e)
    out["asked"] = asked
    print(json.dumps(out))


asyncio.run(main())
