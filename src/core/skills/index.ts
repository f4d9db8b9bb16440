export { checkSkillEntry, isSkillName, SKILL_LIMITS, SKILLS_EXTENSION, skillUriSegments, type EntryCheck, type SkillEntry, type SkillFile } from './skillEntry';
export { SkillRefusedError, verifyFile, splitFrontmatter, verifyFrontmatter, firstDifference } from './skillVerify';
export { listSkills, loadSkill, readSkillFile, verifiedSkillRead, offersSkills, SkillDirectory, MAX_PAGES, MAX_SKILLS, type LoadedSkill, type SkillListing, type SkillServer } from './skillDirectory';
export { LOAD_SKILL, loadSkillDefinition, loadedSkillText, MAX_OFFERED_SKILLS, MAX_SKILL_BODY_CHARS, skillsOfferMessage } from './skillModel';
