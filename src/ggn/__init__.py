"""General Gameplay Notation and the notations around it."""
