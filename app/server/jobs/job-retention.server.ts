/**
 * pg-boss's own retention of finished jobs (its maintenance runs every two minutes on each app
 * server): completed jobs move to its archive after 12 hours, failed ones after 30 days (the admin
 * page counts them until then), and the archive is emptied after 7 days.
 */
export const JOB_RETENTION = {
  archiveCompletedAfterSeconds: 12 * 60 * 60,
  archiveFailedAfterSeconds: 30 * 24 * 60 * 60,
  deleteAfterDays: 7,
};
