"""The cinema ticket wizard of `ticket-booking`, written for the Python MCP SDK.

A reference for benches/e2e: the same tool (`book_tickets`, no arguments), the same
four steps (date, then a seat among the free ones for that date, then snacks, then a
popcorn size only with popcorn), the same demo inventory with `--restock`, and the
same result texts. Each step is a resolver returning `Elicit[...]`; on 2026-07-28 the
SDK turns them into `input_required` rounds with its sealed `requestState`.
`pay_tickets` answers without a question for a client that cannot open URLs: the
bare call.

    python ticket_server.py --port 8080                 # stateless, JSON responses
    python ticket_server.py --port 8080 --mode stateful # sessions (2025-11-25 push)
"""

import argparse
import datetime
from typing import Annotated, Literal, Optional

import uvicorn
from pydantic import BaseModel, Field, create_model

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError


class Cinema:
    """Which seats are free on which date; with restock, a sold seat is put back at once."""

    def __init__(self, restock: bool) -> None:
        self.restock = restock
        self.free: dict[str, tuple[str, ...]] = {
            "2025-02-01": (),
            "2025-02-03": ("A1", "A2", "B4"),
            "2025-02-04": ("C1",),
        }

    def open_dates(self) -> list[str]:
        return [date for date, seats in self.free.items() if seats]

    def take(self, date: str, seat: str) -> bool:
        seats = self.free.get(date, ())
        if seat not in seats:
            return False
        if not self.restock:
            self.free[date] = tuple(s for s in seats if s != seat)
        return True


class ShowDate(BaseModel):
    date: datetime.date = Field(title="Date", description="The day of the show.")


class Snacks(BaseModel):
    popcorn: bool = Field(default=False, title="Popcorn?", description="Whether to add popcorn.")
    drink: Optional[Literal["water", "cola"]] = Field(default=None, title="Drink", description="Something to drink.")


class PopcornSize(BaseModel):
    size: Literal["small", "medium", "large"] = Field(title="Size", description="Bucket size.")


_seat_forms: dict[tuple[str, ...], type[BaseModel]] = {}


def seat_form(seats: tuple[str, ...]) -> type[BaseModel]:
    """The seat step's form offering `seats`, built once per set of free seats."""
    form = _seat_forms.get(seats)
    if form is None:
        form = create_model(
            "SeatChoice",
            seat=(Literal[seats], Field(title="Seat", description="Row letter and seat number.")),
        )
        _seat_forms[seats] = form
    return form


def build(restock: bool) -> MCPServer:
    cinema = Cinema(restock)
    mcp = MCPServer("ticket-booking", instructions="Books cinema tickets step by step. Call book_tickets.")

    async def ask_date() -> Elicit[ShowDate]:
        return Elicit("Which day would you like to go?", ShowDate)

    async def ask_seat(when: Annotated[ShowDate, Resolve(ask_date)]) -> Elicit[BaseModel]:
        date = when.date.isoformat()
        seats = cinema.free.get(date)
        if seats is None:
            raise ToolError(f"There is no show on {date}. Shows with free seats: {', '.join(cinema.open_dates())}.")
        if not seats:
            raise ToolError(f"No seats left on {date} — pick another day.")
        return Elicit(f"Pick a seat for {date}", seat_form(seats))

    async def ask_snacks(seat: Annotated[BaseModel, Resolve(ask_seat)]) -> Elicit[Snacks]:
        return Elicit("Anything to eat?", Snacks)

    async def ask_size(snacks: Annotated[Snacks, Resolve(ask_snacks)]) -> Elicit[PopcornSize] | None:
        if not snacks.popcorn:
            return None
        return Elicit("Which size?", PopcornSize)

    @mcp.tool(
        description="Book a cinema ticket: asks the user for a date, a free seat, snacks and a popcorn size."
    )
    async def book_tickets(
        when: Annotated[ShowDate, Resolve(ask_date)],
        seat: Annotated[BaseModel, Resolve(ask_seat)],
        snacks: Annotated[Snacks, Resolve(ask_snacks)],
        size: Annotated[Optional[PopcornSize], Resolve(ask_size)],
    ) -> str:
        date = when.date.isoformat()
        chosen = getattr(seat, "seat")
        if not cinema.take(date, chosen):
            return f"Seat {chosen} on {date} was just sold to someone else; nothing booked."
        extras = []
        if snacks.popcorn:
            extras.append(f"{size.size} popcorn" if size is not None else "popcorn")
        if snacks.drink is not None:
            extras.append(snacks.drink)
        return f"Booked seat {chosen} on {date} with {' and '.join(extras) or 'no snacks'}."

    @mcp.tool(description="Pay for an order on the payment page (opened through the client, never a form).")
    async def pay_tickets(order: str, ctx: Context, via_error: bool = False) -> str:
        url = f"https://pay.example.com/checkout/{order}"
        caps = ctx.client_capabilities
        if caps is None or caps.elicitation is None or caps.elicitation.url is None:
            return f"This client cannot open payment pages; pay for order {order} at {url}"
        raise ToolError("URL mode is not part of this reference")

    return mcp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=["stateless-json", "stateless-sse", "stateful"], default="stateless-json")
    parser.add_argument("--restock", action="store_true")
    args = parser.parse_args()
    mcp = build(args.restock)
    app = mcp.streamable_http_app(
        json_response=args.mode == "stateless-json",
        stateless_http=args.mode != "stateful",
        host="127.0.0.1",
    )
    config = uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
