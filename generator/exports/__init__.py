"""Layer 10, exports: PNG, print-on-demand, Tabletop Simulator and previews, with their shared face
rasteriser."""
