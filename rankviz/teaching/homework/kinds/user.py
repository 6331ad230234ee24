"""Placeholder: kinds of this family are added here."""
