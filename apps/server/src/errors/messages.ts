// The user-visible message of every API failure, in English (the spec §8 texts where the spec
// gives one) and French. Placeholders in braces are filled from the error's details.
import type { Language } from '@sentinelle/contracts';

export const MESSAGES = {
  validation_failed: { en: 'The request is not valid', fr: "La requête n'est pas valide" },
  not_authenticated: { en: 'You must be logged in', fr: 'Vous devez être connecté' },
  scan_login_required: {
    en: 'You must be logged in to perform an analysis',
    fr: 'Vous devez être connecté pour effectuer une analyse',
  },
  session_expired: {
    en: 'Session expired after {minutes} minutes of inactivity, please log in again',
    fr: "Session expirée après {minutes} minutes d'inactivité, veuillez vous reconnecter",
  },
  forbidden: { en: 'You are not allowed to do this', fr: "Vous n'êtes pas autorisé à faire cela" },
  not_found: { en: 'Not found', fr: 'Introuvable' },
  scan_not_found: { en: 'Scan not found', fr: 'Analyse introuvable' },
  scan_expired: {
    en: 'This scan was automatically deleted after 47 hours',
    fr: 'Cette analyse a été supprimée automatiquement après 47 heures',
  },
  file_required: {
    en: 'Please select a file to analyze',
    fr: 'Veuillez sélectionner un fichier à analyser',
  },
  file_not_zip: { en: 'Only ZIP files are accepted', fr: 'Seuls les fichiers ZIP sont acceptés' },
  file_too_large: {
    en: 'File is too large. Maximum allowed size: {maxSize} MB (your file: {fileSize} MB)',
    fr: 'Le fichier est trop volumineux. Taille maximale autorisée : {maxSize} Mo (votre fichier : {fileSize} Mo)',
  },
  archive_corrupt: {
    en: 'The archive is damaged and could not be read',
    fr: "L'archive est endommagée et n'a pas pu être lue",
  },
  insufficient_credits: {
    en: 'Insufficient credits (balance: {balance}, required: {required})',
    fr: 'Crédits insuffisants (solde : {balance}, requis : {required})',
  },
  analysis_unavailable: {
    en: 'The advanced AI analysis is not available yet',
    fr: "L'analyse IA avancée n'est pas encore disponible",
  },
  analysis_failed: {
    en: 'An error occurred during analysis',
    fr: "Une erreur s'est produite lors de l'analyse",
  },
  analysis_timed_out: {
    en: 'An error occurred during analysis: it took longer than {seconds} seconds',
    fr: "Une erreur s'est produite lors de l'analyse : elle a duré plus de {seconds} secondes",
  },
  scan_cancelled: { en: 'This analysis was cancelled', fr: 'Cette analyse a été annulée' },
  scan_not_finished: {
    en: 'The analysis is not finished yet',
    fr: "L'analyse n'est pas encore terminée",
  },
  scan_not_cancellable: {
    en: 'This analysis is already finished and can no longer be cancelled',
    fr: 'Cette analyse est déjà terminée et ne peut plus être annulée',
  },
  invalid_credentials: { en: 'Invalid credentials', fr: 'Identifiants invalides' },
  login_failed: { en: 'Authentication failed', fr: "L'authentification a échoué" },
  rank_not_assignable: {
    en: 'This rank cannot be assigned',
    fr: 'Ce rang ne peut pas être attribué',
  },
  own_rank: {
    en: 'You cannot change your own rank',
    fr: 'Vous ne pouvez pas modifier votre propre rang',
  },
  purchase_unavailable: {
    en: 'Buying credits is not available',
    fr: "L'achat de crédits n'est pas disponible",
  },
  member_not_found: { en: 'Member not found', fr: 'Membre introuvable' },
  report_not_found: { en: 'Report not found', fr: 'Signalement introuvable' },
  notification_not_found: { en: 'Notification not found', fr: 'Notification introuvable' },
  archive_not_found: {
    en: 'The original archive is no longer kept',
    fr: "L'archive d'origine n'est plus conservée",
  },
  staff_not_member: {
    en: 'A staff account cannot do this: sign in with Steam',
    fr: 'Un compte du personnel ne peut pas faire cela : connectez-vous avec Steam',
  },
  super_admin_rank_locked: {
    en: "A super administrator's rank cannot be changed",
    fr: "Le rang d'un super administrateur ne peut pas être modifié",
  },
  field_required: { en: 'This field is required', fr: 'Ce champ est obligatoire' },
  message_too_long: {
    en: 'The message must not exceed {max} characters',
    fr: 'Le message ne doit pas dépasser {max} caractères',
  },
  unknown_category: { en: 'Unknown category', fr: 'Catégorie inconnue' },
  report_login_required: {
    en: 'You must be logged in to report a problem',
    fr: 'Vous devez être connecté pour signaler un problème',
  },
  rate_limited: {
    en: 'Too many requests, please try again in a moment',
    fr: 'Trop de requêtes, veuillez réessayer dans un instant',
  },
  payload_too_large: { en: 'The request is too large', fr: 'La requête est trop volumineuse' },
  internal_error: {
    en: 'An error occurred. Please try again.',
    fr: "Une erreur s'est produite. Veuillez réessayer.",
  },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function localise(
  key: MessageKey,
  language: Language,
  params: Record<string, unknown> = {},
): string {
  return MESSAGES[key][language].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
