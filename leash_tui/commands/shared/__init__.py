"""Options and progress helpers shared by several ``leash`` commands."""
