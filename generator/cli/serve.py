"""`pnp serve`: the studio, a live preview of the games in the browser (Ctrl+C to stop)."""

from __future__ import annotations

import os

import click

from generator.cli.common import project_of

EDITOR_HELP = (
    "URL that opens a source line in your editor: {path} is the file's absolute path, {file} its path in "
    "the project, {line} the line (default: $PNP_EDITOR_URL or vscode://file/{path}:{line})."
)


class _Printer:
    """Prints what the studio reports."""

    def changed(self, paths) -> None:
        click.echo(f"changed: {', '.join(paths)}")

    def updated(self, game: str, faces: int, seconds: float) -> None:
        click.echo(f"  {game}: {faces} face{'s' if faces != 1 else ''} drawn ({seconds:.2f} s)")

    def failed(self, game: str, problems) -> None:
        for problem in problems:
            click.echo(f"  {problem}", err=True)
        count = len(problems)
        click.echo(
            f"  {game}: {count} problem{'s' if count != 1 else ''}; the studio keeps the last good images",
            err=True,
        )


@click.command("serve")
@click.argument("games", nargs=-1)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default is reachable from this computer only.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the studio in the web browser.")
@click.option("--editor", default=None, help=EDITOR_HELP)
@click.option("--editor-scheme", "editor_schemes", multiple=True, metavar="SCHEME",
              help="Allow another editor's URL scheme for --editor (vscode, idea, subl, zed, ... are known).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests for this host name (e.g. a name of this computer on the network).")
@click.option("--debug", is_flag=True, help="Print the traceback of an internal error.")
@click.pass_context
def serve_cmd(ctx, games, host, port, open_browser, editor, editor_schemes, allow_hosts, debug) -> None:
    """Show every deck, board and rules page in the browser, updated on every save (Ctrl+C to stop)."""
    from generator.studio.server import serve

    project = project_of(ctx)
    named = project.select(games)  # unknown names (or a folder without games) fail here, with the reason
    names = named if games else []  # none named: every game, including those made while the studio runs
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(
            f"Note: listening on {host}: other computers on the network can see this project (only requests "
            "naming this computer are answered; --allow-host NAME adds a name).", err=True
        )

    def ready(url: str) -> None:
        click.echo(f"Studio at {url} (Ctrl+C to stop)")
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    serve(project, names, host=host, port=port, editor=editor or os.environ.get("PNP_EDITOR_URL") or "",
          report=_Printer(), on_ready=ready, debug=debug, allow_hosts=allow_hosts,
          editor_schemes=editor_schemes)
    click.echo("Studio stopped.")
