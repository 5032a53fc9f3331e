"""Layer 8, the rule booklet: Jinja to Markdown, Markdown to Platypus, figures, imposition and the booklet
producer."""
