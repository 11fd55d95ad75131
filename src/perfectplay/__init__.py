"""perfectplay: play and solve two-player perfect-information games."""
