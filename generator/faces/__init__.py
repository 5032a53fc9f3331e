"""Layer 4, the card-face renderer: the layout language, boxes, text fitting, icons, images, one face, the ink
saver and the legibility check. Card sheets, components, booklets, exports and the studio draw faces with
it."""
