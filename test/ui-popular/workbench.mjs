// The popular run's UI suite shares the helpers (and the one `workbench` object) of test/ui.
export * from '../ui/workbench.mjs';
