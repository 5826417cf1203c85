/** The groups of tools only some callers see, by the access rule that sets them apart (mcpGateway.test.ts). */

/** Tools only admins see. */
export const ADMIN_ONLY = [
  'identity_user',
  'identity_set_roles',
  'gateway_audit_recent',
  'admin_status',
  'admin_health',
  'admin_search_audit',
  'admin_detect_patterns',
  'admin_query_operations',
  'admin_user_activity',
];
/** Tools moving the caller's coins or items out: identity tier 1 and above. */
export const MOVES_COINS = ['economy_transfer', 'marketplace_list_item', 'marketplace_buy'];
/** Signature requests: identity tier 1 and above, and the service token (as the signer routes). */
export const SIGNATURES = ['signer_forge_start', 'signer_forge_claim', 'signer_punk_seed_mint'];
/** The caller's own memories: identity tier 1 and above, users only (as /brain/memory). */
export const MEMORY = [
  'memory_remember',
  'memory_recall',
  'memory_list',
  'memory_forget',
  'memory_working_context',
];
/** Reads of the decision log and the graph: identity tier 1 and above, and the service token. */
export const BRAIN_READS = [
  'decisions_list',
  'decision_get',
  'graph_entities',
  'graph_entity',
  'graph_neighbours',
  'graph_communities',
];
/** The memory security reads: operators, admins and the service token (as /brain/security). */
export const SECURITY_READS = ['security_memory_audit', 'security_scan', 'security_export'];
/** Writes of the decision log: operators, admins and the service token. */
export const DECISION_WRITES = ['decision_record', 'decision_supersede', 'decision_revert'];
/** Social reads anyone may call (the service token names whose). */
export const SOCIAL_READS = ['social_profile', 'social_relationships', 'social_search', 'social_stats'];
