// Contract-valid entities for component tests, built through the contracts' own schemas so a
// contract change that breaks the screens also breaks these tests.
import {
  RANK_TABLE,
  scanResultSchema,
  userSchema,
  type ScanResult,
  type User,
} from '@sentinelle/contracts';

export function aUser(overrides: Partial<User> = {}): User {
  return userSchema.parse({
    username: 'Garry Tester',
    steamid: '76561190000000001',
    avatar: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    level: 3,
    level_progress_percentage: 40,
    xp: 46,
    credits: 10,
    is_admin: false,
    rank: 'member',
    rank_info: RANK_TABLE.member,
    account_kind: 'steam',
    ...overrides,
  });
}

export function aMaliciousResult(): ScanResult {
  return scanResultSchema.parse({
    scan_id: 'scan-1',
    filename: 'simplehud.zip',
    score: 12,
    verdict: 'malicious',
    file_count: 4,
    lua_file_count: 3,
    total_lines_scanned: 1234,
    scan_time_seconds: 0.42,
    scan_type: 'standard',
    engine_version: '0.1.0',
    rules_version: '1',
    archive_sha256: 'a'.repeat(64),
    files: [],
    recommendations: [
      {
        key: 'do_not_install',
        text: 'Do not install this addon.',
        localized: { en: 'Do not install this addon.', fr: "N'installez pas cet addon." },
      },
    ],
    threats: [
      {
        pattern: 'RunString(http.Fetch body)',
        pattern_key: 'remote_runstring',
        title: 'Remote code execution',
        description: 'Code downloaded from the internet is executed.',
        recommendation: 'Remove the addon.',
        localized: {
          en: {
            title: 'Remote code execution',
            description: 'Code downloaded from the internet is executed.',
            recommendation: 'Remove the addon.',
          },
          fr: {
            title: 'Exécution de code distant',
            description: 'Du code téléchargé depuis Internet est exécuté.',
            recommendation: "Supprimez l'addon.",
          },
        },
        category: 'code_execution',
        severity: 'critical',
        confidence: 0.95,
        verdict_class: 'remote_loader',
        techniques: ['GB-001'],
        code_snippet: 'http.Fetch(url, function(body)\n  RunString(body, ":")\nend)',
        decoded: 'print("payload")',
        chain: [
          {
            role: 'source',
            label: 'http.Fetch body',
            file_path: 'lua/autorun/server/sv_simplehud.lua',
            line_number: 4,
          },
          {
            role: 'sink',
            label: 'RunString',
            file_path: 'lua/autorun/server/sv_simplehud.lua',
            line_number: 5,
          },
        ],
        locations: [
          {
            file_path: 'lua/autorun/server/sv_simplehud.lua',
            line_number: 5,
            context: 'RunString(body, ":")',
          },
        ],
      },
      {
        pattern: 'file.Read("cfg/server.cfg")',
        pattern_key: 'config_read',
        title: 'Server configuration read',
        description: 'The addon reads the server configuration.',
        recommendation: 'Check why.',
        localized: {
          en: {
            title: 'Server configuration read',
            description: 'The addon reads the server configuration.',
            recommendation: 'Check why.',
          },
          fr: {
            title: 'Lecture de la configuration',
            description: 'L’addon lit la configuration du serveur.',
            recommendation: 'Vérifiez pourquoi.',
          },
        },
        category: 'file_system',
        severity: 'low',
        confidence: 0.5,
        verdict_class: 'suspicious',
        techniques: [],
        code_snippet: 'file.Read("cfg/server.cfg", "GAME")',
        locations: [
          { file_path: 'lua/autorun/sh_simplehud_config.lua', line_number: 2, context: '' },
        ],
      },
    ],
  });
}
