"""Seed 002's purge through the official MCP Python SDK client (`mcp`).

    python purge_client.py ERA COMMAND [ARGS...]

ERA is `legacy` (the initialize handshake, 2025-11-25: the approval is pushed) or
`2026-07-28` (an input_required round). Calls `purge_old_logs(repo="demo-repo", days=90,
dry_run=False)` and answers the approval as the seed's person does: tick the box, type
the approver's e-mail, keep every other field's default, submit. Prints one JSON object:
the approvals asked (message, schema) and the tool's text.
"""

import asyncio
import json
import sys

import mcp_types as types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

ERA, COMMAND = sys.argv[1], sys.argv[2:]

asked = []


async def elicit(context, params):
    schema = params.requested_schema
    schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)
    asked.append({"message": params.message, "schema": schema})
    # What a form shows pre-filled is sent back as it is; the person fills the rest.
    content = {
        name: prop["default"]
        for name, prop in schema["properties"].items()
        if "default" in prop
    }
    content["confirm"] = True
    content["approver"] = "ops@example.com"
    return types.ElicitResult(action="accept", content=content)


async def main():
    server = StdioServerParameters(command=COMMAND[0], args=COMMAND[1:])
    async with Client(server, mode=ERA, elicitation_callback=elicit) as client:
        result = await client.call_tool(
            "purge_old_logs", {"repo": "demo-repo", "days": 90, "dry_run": False}
        )
    print(json.dumps({"text": result.content[0].text, "asked": asked}))


asyncio.run(main())
