// Seed languages the real wallets offer, in the CLI's numbering (English names and native names).
// The simulator writes every seed with the English word list (see harness/sim/README.md).
export const LANGUAGES: ReadonlyArray<{ native: string; english: string }> = [
  { native: 'Deutsch', english: 'German' },
  { native: 'English', english: 'English' },
  { native: 'Español', english: 'Spanish' },
  { native: 'Français', english: 'French' },
  { native: 'Italiano', english: 'Italian' },
  { native: 'Nederlands', english: 'Dutch' },
  { native: 'Português', english: 'Portuguese' },
  { native: 'русский язык', english: 'Russian' },
  { native: '日本語', english: 'Japanese' },
  { native: '简体中文 (中国)', english: 'Chinese (simplified)' },
  { native: 'Esperanto', english: 'Esperanto' },
  { native: 'Lojban', english: 'Lojban' },
];

export const isLanguage = (name: string): boolean => LANGUAGES.some((l) => l.native === name || l.english === name);
export const isNativeLanguage = (name: string): boolean => LANGUAGES.some((l) => l.native === name);
