"""Demo content (``demo.yml``) and the loader that puts it into the content database."""
