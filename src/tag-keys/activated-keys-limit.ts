/** Keys an organisation may activate per map: enough for every key its questions group by, few enough to stay small. */
export const MAX_ACTIVATED_KEYS = 50;
