"""Pages for people's browsers: a finished game's replay as one self-contained HTML document.
Like cogs/render it writes every word through the catalogs and reads only the service's views
(a game's record); it imports no discord, so the same page can be attached to a message or
served."""
