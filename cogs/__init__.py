"""The Discord layer: slash commands, views and rendering."""
