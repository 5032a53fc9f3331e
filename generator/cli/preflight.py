"""`pnp preflight FILE.pdf | GAME [--shop NAME]`: a print shop's checks, one line per problem naming the
page (generator/exports/preflight.py)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import project_of


@click.command("preflight")
@click.argument("target")
@click.option("--shop", default=None, help="Check as this print shop's preset asks (PDF/X, CMYK, ink "
                                           "limit, resolution); a GAME then means its pod/<shop>/ files.")
@click.pass_context
def preflight_cmd(ctx, target: str, shop: str | None) -> None:
    """Check a PDF (or every PDF of a game's build folder, or with --shop the game's files for that shop) as a
    print shop's preflight does: PDF/X keys, colour spaces, total ink, image resolution, transparency,
    hairlines under 0.25 pt, embedded fonts, page boxes, text in the safe zone. Exit code 1 on a problem."""
    from generator.core.errors import InputError, Problem
    from generator.exports.pod import load_preset, preflight_rules
    from generator.exports.preflight import Rules, preflight

    preset = load_preset(shop) if shop else None
    rules = preflight_rules(preset) if preset else Rules()
    path = Path(target)
    if target.lower().endswith(".pdf"):
        if not path.is_file():
            raise InputError(Problem("", 0, f"pnp preflight {target}: no such file; expected a PDF or a "
                                            "game"))
        files = [path]
    else:
        project = project_of(ctx)
        project.select((target,))  # an unknown game is a located error with the known ones
        folder = project.build_dir / target / ("pod/" + preset.shop if preset else "")
        files = sorted(p for p in folder.rglob("*.pdf") if preset or "pod" not in p.relative_to(folder).parts)
        if not files:
            what = f"pnp export pod {target} --shop {shop}" if preset else f"pnp build {target}"
            raise InputError(Problem("", 0, f"no PDF in {project.show(folder)}; expected the output of "
                                            f"{what}"))
    problems = [line for file in files for line in preflight(file, rules)]
    for file in files:
        if not any(line.startswith(file.name) for line in problems):
            click.echo(f"OK  {file}")
    if problems:
        raise InputError([Problem("", 0, line) for line in problems])
