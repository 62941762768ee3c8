;;; auto-mode.el --- auto scripts in Emacs, with eglot and auto's language server  -*- lexical-binding: t; -*-
;; Load it from your init file: (load "/path/to/editors/emacs/auto-mode.el"). Emacs 29 has eglot built in; on 28,
;; install it from GNU ELPA. `auto' must be on PATH (a host's binary works the same: ("library" "lsp")).

(define-derived-mode auto-mode prog-mode "auto"
  "Major mode for auto scripts."
  (setq-local comment-start "# ")
  (setq-local comment-end ""))

(add-to-list 'auto-mode-alist '("\\.auto\\'" . auto-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(auto-mode . ("auto" "lsp"))))

(add-hook 'auto-mode-hook #'eglot-ensure)

(provide 'auto-mode)
;;; auto-mode.el ends here
