"""What the league tells its coaches: the inbox and the e-mails (texts, services, selectors, delivery, tokens)."""
