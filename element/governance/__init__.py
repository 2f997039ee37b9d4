"""Governance: who may do what. Tokens and roles, attachments, auth-policies, rate limits."""
