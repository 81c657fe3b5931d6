-- An org's app on a network whose login takes a saved configuration instead of scopes (Meta's
-- Facebook Login for Business `config_id`): the configuration connects present. NULL: scopes.
ALTER TABLE social_networks ADD COLUMN login_config_id text;
