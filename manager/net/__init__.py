"""Several laptops, one battle: the host, the laptops, the players' page, discovery. No Qt."""
