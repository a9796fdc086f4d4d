/** /login after an ended session (issue 32 item 4); alone in its module, so that the first load carries this line only. */
export const SESSION_ENDED_TEXT = 'Сеанс завершён, войдите снова.';
