/**
 * Traceability: the room where linking tests and their cases to requirements will live
 * (docs/architecture.md "Who may import whom"). It holds no code yet: its place in the layers is
 * set (it may use the shared pieces of src/domain, the client, the parsers and the settings; the
 * job layer may call it) and held by its row in eslint.config.js, so the feature lands here rather
 * than in another room.
 */
export {};
