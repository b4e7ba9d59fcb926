"""House rules: the pure game engines (``rules.games``) and the rule sets tables play by."""
