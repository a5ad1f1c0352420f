"""Storage: SQLModel tables, numbered migrations, an engine factory, bulk writes and the
read-only query layer the pages use. SQLite by default, PostgreSQL by URL."""
