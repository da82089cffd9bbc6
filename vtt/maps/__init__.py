"""Importing maps from other tools' files (Universal VTT: `uvtt`)."""
